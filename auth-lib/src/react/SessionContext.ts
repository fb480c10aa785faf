import { createContext } from 'react';
import type { Session } from '../types';

/** The session an `<AuthProvider>` above provides; null means "use the page session". */
export const SessionContext = createContext<Session | null>(null);
SessionContext.displayName = 'GatehouseSession';
