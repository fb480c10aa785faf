import { defineApp } from '@gatehouse/federation';

export default defineApp({ name: 'reports', title: 'Reports', dir: __dirname, port: 3003, exposes: { './App': './src/App.tsx' } });
