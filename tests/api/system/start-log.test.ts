import { describe, expect, it } from 'vitest';
import { listenText, readyText } from '../../../src/server/start-log.js';

/** Issue 23: the start log names the address the README gives (localhost) and says where emails go. */
describe('the start log', () => {
  it('says http://localhost:PORT when the server listens on 127.0.0.1', () => {
    expect(listenText('http://127.0.0.1:3000', '127.0.0.1')).toBe('Server listening at http://localhost:3000');
    expect(listenText('http://[::1]:3000', '::1')).toBe('Server listening at http://localhost:3000');
  });

  it('keeps the real address on any other interface', () => {
    expect(listenText('http://10.0.0.5:3000', '0.0.0.0')).toBe('Server listening at http://10.0.0.5:3000');
    expect(listenText('http://127.0.0.1:3000', '0.0.0.0')).toBe('Server listening at http://127.0.0.1:3000');
  });

  it('says where emails go: the local outbox page, or SMTP', () => {
    expect(readyText({ publicUrl: 'http://localhost:3000', database: 'pglite', email: 'outbox' })).toBe(
      'Agora is ready at http://localhost:3000 (database: pglite; emails go to the local outbox at http://localhost:3000/dev/outbox)',
    );
    expect(readyText({ publicUrl: 'https://agora.example/', database: 'postgres', email: 'smtp' })).toBe(
      'Agora is ready at https://agora.example (database: postgres; emails are sent by SMTP)',
    );
  });
});
