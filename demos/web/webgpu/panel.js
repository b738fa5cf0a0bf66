// The WebGPU gallery's panel, in HTML: what the C++ demos' Dear ImGui panel shows (demos/app/app.cpp):
// the demo, the element count, the backend, pause and single step, the step time plot, the calls of
// the last step (WebGPU calls instead of GL calls), the buffer plan; then the demo's own controls,
// what differs on WebGPU, and the link to the WebGL2 version.

const el = (tag, attributes = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attributes)) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (k === 'html') e.innerHTML = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
};

export class Panel {
  #live = []; // [element, () => text]: refreshed every frame
  #demo = null;

  /** root: the panel element; options: the demo's name and title, every demo's { name: title },
   *  the variant, and callbacks onCount(n), onPause(paused), onStep(). */
  constructor(root, { name, titles, variant, onCount, onPause, onStep }) {
    this.root = root;
    this.name = name;
    this.onCount = onCount;
    const webgl2 = `demo.html?demo=${name}${variant ? `&variant=${variant}` : ''}`;
    const demoSelect = el('select', { id: 'demo', onchange: (e) => (location.search = `?demo=${e.target.value}`) },
      ...Object.entries(titles).map(([n, t]) => el('option', { value: n, ...(n === name ? { selected: '' } : {}) }, t)));
    this.count = el('input', { type: 'range', id: 'count', min: 0, max: 1000, step: 1 });
    this.countText = el('span', { class: 'value' });
    this.count.addEventListener('input', () => (this.countText.textContent = this.#countOf(this.count.value).toLocaleString('en')));
    this.count.addEventListener('change', () => this.onCount(this.#countOf(this.count.value))); // rebuild once, on release
    const backend = el('select', { id: 'backend', onchange: (e) => e.target.value === 'webgl2' && (location.href = webgl2) },
      el('option', { value: 'webgpu', selected: '' }, 'WebGPU: compute pass'),
      el('option', { value: 'webgl2' }, 'WebGL2: transform feedback'));
    this.reason = el('p', { class: 'reason' });
    this.pause = el('input', { type: 'checkbox', id: 'pause', onchange: (e) => onPause(e.target.checked) });
    this.plot = el('canvas', { id: 'plot', width: 400, height: 50 });
    this.stepText = el('div', { id: 'step' });
    this.callsText = el('div', { id: 'calls', class: 'small' });
    this.error = el('div', { id: 'error', class: 'error' });
    this.plan = el('div', { class: 'plan' });
    this.wgsl = el('pre', { class: 'wgsl' });
    this.controls = el('div', { id: 'controls' });
    this.note = el('p', { class: 'note' });
    root.replaceChildren(
      el('div', { class: 'row' }, el('label', { for: 'demo' }, 'demo'), demoSelect),
      el('div', { class: 'row' }, el('label', { for: 'count' }, 'elements'), this.count, this.countText),
      el('div', { class: 'row' }, el('label', { for: 'backend' }, 'backend'), backend),
      this.reason,
      el('div', { class: 'row' }, el('label', {}, this.pause, ' pause'), el('button', { onclick: onStep }, 'single step')),
      this.plot, this.stepText, this.callsText, this.error,
      el('details', {}, el('summary', {}, 'buffer plan'), this.plan),
      el('details', {}, el('summary', {}, 'WGSL (the GLSL translated)'), this.wgsl),
      el('hr'), this.controls, this.note,
      el('p', { class: 'links' }, el('a', { href: webgl2 }, 'this demo on WebGL2'), ' · ', el('a', { href: 'index.html' }, 'gallery')),
    );
  }

  #countOf(v) {
    const min = 1000, max = this.#demo.maxCount;
    return Math.round(min * (max / min) ** (v / 1000));
  }

  /** Shows a (re)built demo: count, backend reason, plan, WGSL, its controls and its WebGPU note. */
  setDemo(demo) {
    this.#demo = demo;
    const min = 1000, max = demo.maxCount;
    this.count.value = String(Math.round((1000 * Math.log(Math.max(demo.count, min) / min)) / Math.log(max / min)));
    this.countText.textContent = demo.count.toLocaleString('en');
    this.reason.textContent = 'WebGPU has no transform feedback: xfb translates the same GLSL vertex shader to a WGSL compute ' +
      'shader that reads and writes the same bytes, one compute pass per step (pipeline.info.backend ' +
      `'${demo.pipeline.info.backend}', ${demo.pipeline.info.workGroupSize} invocations a work group).`;
    const plan = demo.program.plan;
    this.plan.replaceChildren(
      el('div', {}, `${plan.mode} mode`),
      el('ul', {}, ...plan.attributes.map((a) => el('li', {}, `in ${a.type} ${a.name} -> ${a.semantic}`)),
        ...plan.buffers.map((b) => el('li', {}, `binding ${b.binding}, stride ${b.stride} bytes`,
          el('div', { class: 'fields' }, ...b.fields.map((f) => el('div', {}, `${f.varying} @${f.offset} (${f.components} x ${f.type})`)))))),
    );
    this.wgsl.textContent = demo.pipeline.wgsl;
    this.#live = this.#live.filter(([e]) => !this.controls.contains(e));
    this.controls.replaceChildren();
    demo.panel(this.#ui(demo));
    this.note.innerHTML = `<b>On WebGPU.</b> ${demo.webgpu}`;
  }

  /** Per frame: the plot of step times, the step and call lines, errors and the demo's live texts. */
  update({ history, unit, step, calls, error }) {
    const g = this.plot.getContext('2d'), { width, height } = this.plot;
    const peak = Math.max(...history, 0.1);
    g.fillStyle = '#0b0f16';
    g.fillRect(0, 0, width, height);
    g.strokeStyle = '#7fb3ff';
    g.beginPath();
    history.forEach((v, i) => g[i ? 'lineTo' : 'moveTo']((i / (history.length - 1)) * (width - 1), height - 1 - (v / peak) * (height - 4)));
    g.stroke();
    g.fillStyle = '#9aa6b2';
    g.font = '11px system-ui, sans-serif';
    g.fillText(`${unit}, peak ${peak.toFixed(2)}`, 4, 12);
    this.stepText.textContent = step;
    this.callsText.textContent = calls;
    this.error.textContent = error;
    for (const [e, text] of this.#live) e.textContent = text();
  }

  /** What a demo's panel(ui) builds its controls with. */
  #ui(demo) {
    const add = (...children) => this.controls.append(...children);
    const id = (label) => `c-${label.replace(/\W+/g, '-')}`;
    return {
      slider: (label, { min, max, step, value, onInput, onChange }) => {
        const input = el('input', { type: 'range', id: id(label), min, max, step, value });
        const shown = el('span', { class: 'value' }, String(value));
        input.addEventListener('input', () => { shown.textContent = input.value; onInput?.(Number(input.value)); });
        if (onChange) input.addEventListener('change', () => onChange(Number(input.value)));
        add(el('div', { class: 'row' }, el('label', { for: id(label) }, label), input, shown));
      },
      select: (label, options, value, onChange) => add(el('div', { class: 'row' }, el('label', { for: id(label) }, label),
        el('select', { id: id(label), onchange: (e) => onChange(e.target.value) },
          ...options.map(([v, t]) => el('option', { value: v, ...(v === value ? { selected: '' } : {}) }, t))))),
      radio: (label, options, value, onChange) => add(el('div', { class: 'radios' }, ...options.map(([v, t]) =>
        el('label', {}, el('input', { type: 'radio', name: id(label), value: v, ...(v === value ? { checked: '' } : {}), onchange: () => onChange(v) }), ` ${t}`)))),
      button: (label, onClick) => add(el('div', { class: 'row' }, el('button', { onclick: onClick }, label))),
      text: (text) => {
        const e = el('div', { class: 'text' }, typeof text === 'function' ? text() : text);
        if (typeof text === 'function') this.#live.push([e, text]);
        add(e);
      },
      /** After the demo rebuilt itself from one of its controls: show it again. */
      rebuilt: () => this.setDemo(demo),
    };
  }
}
