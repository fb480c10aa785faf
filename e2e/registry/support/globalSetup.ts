import { ensureProductionBuilds } from '../../production/support/globalSetup';

/** The shell's production build the contract check runs against: the one build every production suite shares. */
export default async function globalSetup(): Promise<void> {
  await ensureProductionBuilds('registry e2e');
}
