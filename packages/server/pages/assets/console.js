// The console's optional script: a progressive enhancement, never required. On a campaign page it
// fetches the progress figures every 30 seconds (or what data-refresh-seconds says) and puts them in
// place; a reload shows the same truth without it. Changes are announced politely, once each.
(() => {
  const section = document.querySelector('[data-progress-url]');
  if (!section || typeof fetch !== 'function') return;
  const url = section.getAttribute('data-progress-url');
  const seconds = Number(section.getAttribute('data-refresh-seconds')) || 30;
  const live = section.querySelector('[data-progress-live]');
  const text = section.querySelector('[data-progress-text]');
  const svg = section.querySelector('svg.progress');
  const SVG = 'http://www.w3.org/2000/svg';

  const drawBar = (bar) => {
    if (!svg) return;
    for (const rect of [...svg.querySelectorAll('rect:not(.progress__track)')]) rect.remove();
    for (const segment of bar) {
      const rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('class', `progress__${segment.kind}`);
      rect.setAttribute('x', String(segment.x));
      rect.setAttribute('y', '0');
      rect.setAttribute('width', String(segment.width));
      rect.setAttribute('height', '10');
      svg.appendChild(rect);
    }
  };

  const refresh = async () => {
    try {
      const response = await fetch(url, {
        credentials: 'same-origin',
        headers: { accept: 'application/json' },
      });
      if (!response.ok) return;
      const progress = await response.json();
      let changed = false;
      for (const [key, value] of Object.entries(progress.figures || {})) {
        const cell = section.querySelector(`[data-figure="${key}"]`);
        if (cell && cell.textContent !== value) {
          cell.textContent = value;
          changed = true;
        }
      }
      if (text && typeof progress.text === 'string' && text.textContent !== progress.text) {
        text.textContent = progress.text;
        changed = true;
      }
      if (changed) {
        drawBar(progress.bar || []);
        if (live) live.textContent = progress.text;
      }
    } catch {
      // Offline or signed out: the figures stay as they are; a reload shows the truth.
    }
  };
  setInterval(refresh, seconds * 1000);
})();
