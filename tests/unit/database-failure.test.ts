import { describe, expect, it } from 'vitest';
import { databaseFailure } from '../../src/server/http/errors.js';

/** The SQLSTATEs (and driver errors) that answer 503, looked for through drizzle's wrapping. */
const wrapped = (code: string, message = 'x') => ({
  message: 'Failed query: select 1',
  cause: Object.assign(new Error(message), { code }),
});

describe('databaseFailure', () => {
  it.each([
    ['08006', 'connection failure'],
    ['57P01', 'terminating connection due to administrator command'],
    ['57P03', 'the database system is starting up'],
    ['57014', 'canceling statement due to statement timeout'],
    ['53300', 'sorry, too many clients already'],
    ['53100', 'could not extend file: No space left on device'],
    ['3D000', 'database "agora" does not exist'],
    ['28P01', 'password authentication failed for user "agora"'],
    ['55000', 'database "agora" is not currently accepting connections'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
  ])('%s (%s) is the database unavailable: 503', (code, message) => {
    expect(databaseFailure(wrapped(code, message))).toBe('unavailable');
  });

  it('55000 for anything but refused connections is a bug of ours, not unavailability (a 500)', () => {
    expect(databaseFailure(wrapped('55000', 'currval of sequence "s" is not yet defined in this session'))).toBeNull();
  });

  it('class 22 is the input; constraint violations and syntax errors are neither', () => {
    expect(databaseFailure(wrapped('22007', 'invalid input syntax for type date'))).toBe('input');
    expect(databaseFailure(wrapped('23505', 'duplicate key'))).toBeNull();
    expect(databaseFailure(wrapped('42601', 'syntax error'))).toBeNull();
  });
});
