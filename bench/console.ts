// npm run bench -- console [--rounds N] [--tickets N]: the staff console's JavaScript budget and its
// first screen. The browser side lives in bench/console/first-screen.ts (type-checked with the DOM
// library beside the console's browser tests).
export { default } from './console/first-screen.js';
