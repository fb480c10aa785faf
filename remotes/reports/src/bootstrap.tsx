import { runStandalone } from '@gatehouse/federation/standalone';
import App from './App';

// Opened at its own port, the remote is a full app that signs in by itself (see tooling/federation).
void runStandalone({ title: 'Reports', App });
