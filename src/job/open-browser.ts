import { spawn } from 'node:child_process';

/**
 * The command that opens a URL in the user's browser, or undefined where none should run: no display on Linux
 * (neither DISPLAY nor WAYLAND_DISPLAY: a server, a container, an SSH session), a CI job.
 */
export function browserCommand(url: string, platform: NodeJS.Platform, env: Readonly<Record<string, string | undefined>>): { command: string; args: string[] } | undefined {
  if (env['CI']) return undefined;
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '', url] }; // start's first quoted argument is a window title
  if (!env['DISPLAY'] && !env['WAYLAND_DISPLAY']) return undefined;
  return { command: 'xdg-open', args: [url] };
}

/** Opens `url` in the browser, when there is one to open (browserCommand); true when it tried. A failure is not an error: the URL is printed. */
export function openBrowser(url: string, env: Readonly<Record<string, string | undefined>>): boolean {
  const how = browserCommand(url, process.platform, env);
  if (how === undefined) return false;
  const child = spawn(how.command, how.args, { stdio: 'ignore', detached: true });
  child.on('error', () => {}); // no xdg-open: the printed URL is enough
  child.unref();
  return true;
}
