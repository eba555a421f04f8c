// attnscope.show: the attnscope page itself in a notebook's output (an
// anywidget ES module). The page runs in a frame of its own (static/frame.html),
// so that its style and keys stay apart from the notebook's. Its files come
// from the Python package by the widget's messages (once per notebook page),
// and the trace's bytes as the page's views ask for them: nothing is
// fetched from any host.

let nextId = 0;
const filesOf = new Map(); // 'page' → a promise of the page's files

// One request to the kernel and its reply (matched by id): { msg, buffers }.
function ask(model, content) {
  const id = ++nextId;
  return new Promise((resolve, reject) => {
    const on = (msg, buffers) => {
      if (!msg || msg.id !== id) return;
      model.off('msg:custom', on);
      if (msg.kind === 'error') reject(new Error(msg.error));
      else resolve({ msg, buffers: buffers || [] });
    };
    model.on('msg:custom', on);
    model.send({ ...content, id });
  });
}

// A DataView of a message's buffer as an ArrayBuffer of its own.
const own = (view) => view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength);

async function files(model) {
  const { msg, buffers } = await ask(model, { kind: 'files' });
  const named = Object.fromEntries(msg.names.map((name, i) => [name, own(buffers[i])]));
  return { version: msg.version, frame: msg.frame, files: named };
}

function render({ model, el }) {
  el.classList.add('attnscope-notebook');
  el.dataset.state = 'loading';
  const error = model.get('error');
  if (error) {
    const p = document.createElement('p');
    p.className = 'attnscope-error';
    p.setAttribute('role', 'alert');
    p.textContent = error;
    el.replaceChildren(p);
    el.dataset.state = 'failed';
    return;
  }
  const bar = document.createElement('div');
  bar.className = 'attnscope-bar';
  const name = document.createElement('span');
  name.className = 'attnscope-name';
  name.textContent = `attnscope · ${model.get('name')}`;
  const status = document.createElement('span');
  status.className = 'attnscope-status';
  status.setAttribute('role', 'status');
  status.textContent = 'Loading the viewer…';
  const open = document.createElement('button');
  open.type = 'button';
  open.className = 'attnscope-open';
  open.textContent = 'Open in a new tab ↗';
  open.title = 'The same viewer as one self-contained HTML file (attnscope.to_html), in a tab of its own';
  bar.append(name, status, open);
  const frame = document.createElement('iframe');
  frame.className = 'attnscope-frame';
  frame.title = `attnscope: ${model.get('name')}`;
  const fit = () => {
    const h = model.get('height');
    frame.style.height = `${h > 0 ? h : Math.round(Math.min(900, Math.max(520, window.innerHeight * 0.85)))}px`;
  };
  fit();
  el.replaceChildren(bar, frame);
  const failed = (e) => {
    status.textContent = e.message || String(e);
    status.classList.add('failed');
  };

  open.addEventListener('click', async () => {
    // Opened at once, so that the browser counts it as the click's; filled when the HTML comes.
    const tab = window.open('', '_blank');
    try {
      const { buffers } = await ask(model, { kind: 'html' });
      const url = URL.createObjectURL(new Blob([buffers[0]], { type: 'text/html' }));
      if (tab) tab.location.href = url;
      else window.open(url, '_blank');
    } catch (e) {
      if (tab) tab.close();
      failed(e);
    }
  });

  let page;
  let port;
  const start = () => {
    if (!page || !frame.contentWindow) return;
    // A frame moved in the notebook loads again: each load gets the files and a port of its own.
    if (port) port.close();
    const channel = new MessageChannel();
    port = channel.port1;
    port.onmessage = async (e) => {
      const { id, start: from, end } = e.data || {};
      try {
        const { buffers } = await ask(model, { kind: 'read', start: from, end });
        const bytes = own(buffers[0]);
        port.postMessage({ id, bytes }, [bytes]);
      } catch (err) {
        port.postMessage({ id, error: err.message || String(err) });
      }
    };
    const trace = { name: model.get('name'), size: model.get('size') };
    frame.contentWindow.postMessage({ attnscope: 'start', files: page.files, trace, query: model.get('query') }, '*', [channel.port2]);
    status.textContent = '';
    el.dataset.state = 'ready';
  };
  frame.addEventListener('load', start);
  // Asked of the kernel once per notebook page; every widget shares them.
  const loading = filesOf.get('page') || files(model);
  filesOf.set('page', loading);
  loading.then(
    (p) => {
      page = p;
      frame.srcdoc = p.frame;
    },
    (e) => {
      filesOf.delete('page');
      el.dataset.state = 'failed';
      failed(e);
    },
  );
  const onHeight = () => fit();
  model.on('change:height', onHeight);
  return () => {
    model.off('change:height', onHeight);
    if (port) port.close();
  };
}

export default { render };
