import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import parseChangeset from '@changesets/parse';
import { describe, expect, it } from 'vitest';

/**
 * What the npm page and the release process read: package.json's repository, homepage and bugs (links on the npm
 * page), and changesets (.changeset/): every changeset parses and releases co2e-engine as patch or minor, and the
 * configured changelog generator is installed and writes a CHANGELOG line with the commit.
 */

const ROOT = resolve(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  repository: { type: string; url: string };
  homepage: string;
  bugs: { url: string };
  devDependencies: Record<string, string>;
};
const config = JSON.parse(readFileSync(join(ROOT, '.changeset/config.json'), 'utf8')) as {
  changelog: string | [string, unknown];
  commit: boolean;
  baseBranch: string;
};

describe('package.json links', () => {
  it('has a git repository, and homepage and bugs on the same repository', () => {
    expect(pkg.repository.type).toBe('git');
    const match = /^git\+(https:\/\/github\.com\/[\w.-]+\/[\w.-]+)\.git$/.exec(pkg.repository.url);
    expect(match).not.toBeNull();
    const web = (match as RegExpExecArray)[1];
    expect(pkg.homepage).toBe(`${web}#readme`);
    expect(pkg.bugs.url).toBe(`${web}/issues`);
  });
});

describe('changesets', () => {
  const files = readdirSync(join(ROOT, '.changeset')).filter(
    (file) => file.endsWith('.md') && file !== 'README.md',
  );

  it.each(files)('%s releases co2e-engine as patch or minor, with a summary', (file) => {
    const changeset = parseChangeset(readFileSync(join(ROOT, '.changeset', file), 'utf8'));
    expect(changeset.releases.length).toBeGreaterThan(0);
    for (const release of changeset.releases) {
      expect(release.name).toBe(pkg.name);
      expect(['patch', 'minor']).toContain(release.type);
    }
    expect(changeset.summary.trim()).not.toBe('');
  });

  it('generates the CHANGELOG with an installed generator that names the commit', async () => {
    const name = Array.isArray(config.changelog) ? config.changelog[0] : config.changelog;
    expect(name).toBe('@changesets/changelog-git');
    expect(pkg.devDependencies).toHaveProperty(name);
    const generator = createRequire(join(ROOT, 'package.json'))(name) as {
      default: { getReleaseLine: (changeset: object, type: string) => Promise<string> };
    };
    const line = await generator.default.getReleaseLine(
      { id: 'x', summary: 'HTTP: the hosted API paths.', releases: [], commit: '6580c2f0123456789' },
      'minor',
    );
    expect(line.trim()).toBe('- 6580c2f: HTTP: the hosted API paths.');
    expect(config.commit).toBe(false); // `changeset version` is the integrator's step, committed by hand
    expect(config.baseBranch).toBe('main');
  });
});
