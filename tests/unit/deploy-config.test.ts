import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAPROXY_CONFIG, haproxyBinary, haproxyConfigFor, healthPath, ROOT } from '../support/fleet.js';

/**
 * The deploy files agree with each other and with the fleet the tests start: one HAProxy
 * config (deploy/haproxy.cfg) that the compose file mounts and tests/support/fleet.ts adapts,
 * naming the compose file's instances, and one health route for the balancer and the image.
 */
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

describe('deploy files', () => {
  it("the fleet's HAProxy config is deploy/haproxy.cfg with local ports, and HAProxy accepts it", () => {
    const config = haproxyConfigFor({
      balancerPort: 18080,
      statsPort: 18404,
      servers: [
        { name: 'app1', port: 13001 },
        { name: 'app2', port: 13002 },
      ],
    });
    expect(config).toContain('bind 127.0.0.1:18080');
    expect(config).toContain('bind 127.0.0.1:18404');
    const servers = config.split('\n').filter((l) => /^\s*server\s/.test(l));
    expect(servers.map((l) => l.trim().split(/\s+/).slice(1, 3))).toEqual([
      ['app1', '127.0.0.1:13001'],
      ['app2', '127.0.0.1:13002'],
    ]);
    // Everything but the binds and the servers is the committed file's.
    const rest = (text: string) =>
      text
        .split('\n')
        .filter((l) => !/^\s*(bind|server)\s/.test(l) && !l.includes('# fleet servers'))
        .join('\n');
    expect(rest(config)).toBe(rest(readFileSync(HAPROXY_CONFIG, 'utf8')));

    const dir = mkdtempSync(path.join(os.tmpdir(), 'agora-haproxy-'));
    try {
      writeFileSync(path.join(dir, 'haproxy.cfg'), config);
      // `-c` checks the configuration and exits: 0 when valid (a throw shows HAProxy's complaint).
      execFileSync(haproxyBinary(), ['-c', '-q', '-f', path.join(dir, 'haproxy.cfg')], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('compose runs the instances deploy/haproxy.cfg names, on the port it checks, with the same health route as the image', () => {
    const haproxy = readFileSync(HAPROXY_CONFIG, 'utf8');
    const compose = read('deploy/compose.yaml');
    const servers = [...haproxy.matchAll(/^\s*server (\S+) (\S+):(\d+)/gm)];
    expect(servers.length).toBe(3);
    for (const [, name, host, port] of servers) {
      expect(host).toBe(name);
      expect(compose).toMatch(new RegExp(`^  ${name}:\\n    <<: \\*agora`, 'm'));
      expect(port).toBe('3000');
    }
    expect(compose).toContain('./haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    expect(compose).toContain('image: postgres:17');
    const dockerfile = read('Dockerfile');
    expect(dockerfile).toContain('PORT=3000');
    expect(dockerfile).toContain(`'${healthPath()}'`);
    expect(dockerfile).toMatch(/^USER node$/m);
  });
});
