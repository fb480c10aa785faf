import { defineApp } from '@gatehouse/federation';

export default defineApp({ name: 'profile', title: 'Profile', dir: __dirname, port: 3001, exposes: { './App': './src/App.tsx' } });
