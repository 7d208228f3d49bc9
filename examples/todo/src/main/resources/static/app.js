// Lists the to-dos of /todos and adds one; answers are JSON, errors problem documents (application/problem+json).
'use strict';

const list = document.getElementById('todos');
const status = document.getElementById('status');

function render(todos) {
  list.replaceChildren(...todos.map(todo => {
    const item = document.createElement('li');
    item.textContent = todo.title;
    item.dataset.id = todo.id;
    if (todo.done) {
      item.className = 'done';
    }
    return item;
  }));
  document.body.dataset.loaded = String(todos.length);
}

async function load() {
  const response = await fetch('todos?limit=100', { headers: { Accept: 'application/json' } });
  if (!response.ok) {
    status.textContent = 'Could not load the to-dos (' + response.status + ').';
    return;
  }
  render(await response.json());
}

document.getElementById('add').addEventListener('submit', async event => {
  event.preventDefault();
  const title = document.getElementById('title');
  const response = await fetch('todos', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ title: title.value })
  });
  if (response.ok) {
    title.value = '';
    status.textContent = '';
    await load();
  } else {
    const problem = await response.json();
    status.textContent = problem.detail || problem.title;
  }
});

load();
