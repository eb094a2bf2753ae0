import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../src/job/open-browser.js';

describe('browserCommand: the browser is opened only where there is one to open', () => {
  const url = 'http://127.0.0.1:9840/';

  it('Linux: xdg-open with a display (X11 or Wayland), nothing without one', () => {
    expect(browserCommand(url, 'linux', { DISPLAY: ':0' })).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand(url, 'linux', { WAYLAND_DISPLAY: 'wayland-0' })).toEqual({ command: 'xdg-open', args: [url] });
    expect(browserCommand(url, 'linux', {})).toBeUndefined();
  });

  it('macOS: open; Windows: start; never in a CI job', () => {
    expect(browserCommand(url, 'darwin', {})).toEqual({ command: 'open', args: [url] });
    expect(browserCommand(url, 'win32', {})).toEqual({ command: 'cmd', args: ['/c', 'start', '', url] });
    expect(browserCommand(url, 'darwin', { CI: 'true' })).toBeUndefined();
    expect(browserCommand(url, 'linux', { CI: '1', DISPLAY: ':0' })).toBeUndefined();
  });
});
