// The console's entry: styles, the language, the session, then the shell.
import './styles.css';
import { render } from 'preact';
import { App } from './app';
import { startSession } from './session';

const root = document.getElementById('app');
if (root) {
  render(<App />, root);
  void startSession();
}
