import fjs from 'fast-json-stringify';
import { Type } from 'typebox';
import { NotificationList, ProjectStatusChangedData, ProjectRevisionRequestedData, NewInvestmentReceivedData, InvestmentStatusChangedData } from '../src/modules/notifications/schemas.js';

const mk = (i: number) => {
  const kinds = [
    { type: 'project_status_changed', project_id: i, project_title: 'Solar farm ' + i, status: 'approved', message: 'Your project "Solar farm" was approved.', comment: null, url: 'https://app.example/projects/' + i },
    { type: 'new_investment_received', investment_id: i, project_id: 3, project_title: 'Solar farm', amount: 5000000, investor_name: 'Sara Ahmadi', message: 'Sara Ahmadi invested 5,000,000 in "Solar farm".', url: 'https://app.example/projects/3/investments' },
    { type: 'investment_status_changed', investment_id: i, project_title: 'Solar farm', amount: 5000000, status: 'refunded', message: 'Your investment was refunded.', notes: 'refund 5,000,000', url: 'https://app.example/investments/' + i },
  ];
  const data = kinds[i % 3]!;
  return { id: crypto.randomUUID(), type: data.type, data: JSON.stringify(data), read_at: null, created_at: '2026-11-23T08:00:00.000Z' };
};
const rows = Array.from({ length: 50 }, (_, i) => mk(i));
const parsed = rows.map((r) => ({ ...r, data: JSON.parse(r.data) }));
const anyOf = fjs(NotificationList as never);
const branches = [ProjectStatusChangedData, ProjectRevisionRequestedData, NewInvestmentReceivedData, InvestmentStatusChangedData];
let chain: any = branches[3];
for (let k = 2; k >= 0; k--) chain = { if: { properties: { type: { const: (branches[k] as any).properties.type.const } } }, then: branches[k], else: chain };
const ifList = fjs({ type: 'array', items: { ...(NotificationList as any).items, properties: { ...(NotificationList as any).items.properties, data: { type: 'object', ...chain } } } } as never);
if (ifList(parsed) !== anyOf(parsed)) throw new Error('differ');
const time = (name: string, f: () => unknown) => {
  for (let i = 0; i < 2000; i++) f();
  const n = 20000; const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f();
  console.log(name, (Number(process.hrtime.bigint() - t) / n / 1000).toFixed(1), 'µs');
};
time('parse', () => rows.map((r) => ({ ...r, data: JSON.parse(r.data) })));
time('anyOf', () => anyOf(parsed));
time('ifthen', () => ifList(parsed));
time('JSON.stringify', () => JSON.stringify(parsed));
const per = new Map(branches.map((b: any) => [b.properties.type.const, fjs(b as never)]));
const outer = fjs({ type: 'object', properties: { id: { type: 'string' }, type: { type: 'string' }, read_at: { anyOf: [{ type: 'string' }, { type: 'null' }] }, created_at: { type: 'string' } } } as never);
const disc = (list: any[]) => {
  let out = '[';
  for (let i = 0; i < list.length; i++) {
    const n = list[i];
    if (i) out += ',';
    out += '{"id":' + JSON.stringify(n.id) + ',"type":' + JSON.stringify(n.type) + ',"data":' + per.get(n.data.type)!(n.data) + ',"read_at":' + JSON.stringify(n.read_at) + ',"created_at":' + JSON.stringify(n.created_at) + '}';
  }
  return out + ']';
};
if (disc(parsed) !== anyOf(parsed)) { console.log(disc(parsed).slice(0,300)); console.log(anyOf(parsed).slice(0,300)); }
time('disc', () => disc(parsed));
const one = per.get('new_investment_received')!;
time('one branch x50', () => { for (const p of parsed) one(p.data); });
