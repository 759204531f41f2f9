import { render } from 'preact';
import { App } from './components/app.js';
import './styles.css';

const container = document.getElementById('app')!;
// The static "Loading correx…" line is for the moment before this script runs.
container.textContent = '';
render(<App />, container);
