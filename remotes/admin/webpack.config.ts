import { defineApp } from '@gatehouse/federation';

export default defineApp({ name: 'admin', title: 'Admin', dir: __dirname, port: 3002, exposes: { './App': './src/App.tsx' } });
