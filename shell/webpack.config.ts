import { defineApp } from '@gatehouse/federation';

export default defineApp({
  name: 'gatehouse_shell',
  title: 'Gatehouse',
  dir: __dirname,
  port: 3000,
  exposes: { './auth': './src/auth/index.ts' },
});
