/** Stable codes of the deploy doctor's findings: one per kind of problem, whatever the URL. */
export const DOCTOR_CODES = {
  http: 'DOCTOR-HTTP',
  unreadable: 'DOCTOR-UNREADABLE',
  config: 'DOCTOR-CONFIG',
  site: 'DOCTOR-PROVIDER-SITE',
  issuer: 'DOCTOR-ISSUER',
  webOrigin: 'DOCTOR-WEB-ORIGIN',
  redirectUri: 'DOCTOR-REDIRECT-URI',
  csp: 'DOCTOR-CSP',
  cspMissing: 'DOCTOR-NO-CSP',
  cors: 'DOCTOR-CORS',
  cacheable: 'DOCTOR-CACHEABLE',
  notImmutable: 'DOCTOR-NOT-IMMUTABLE',
  manifest: 'DOCTOR-MANIFEST',
  release: 'DOCTOR-RELEASE',
  sessionEvents: 'DOCTOR-SESSION-EVENTS',
} as const;

export type DoctorCode = (typeof DOCTOR_CODES)[keyof typeof DOCTOR_CODES];

/** One problem of a deployment: what is wrong, what visitors meet because of it, what to do. */
export interface Problem {
  readonly code: DoctorCode;
  readonly what: string;
  readonly breaks: string;
  readonly fix: string;
}

/** What the doctor found: the problems, and one line per check that passed. */
export interface Diagnosis {
  readonly shell: string;
  readonly problems: Problem[];
  readonly passed: string[];
}
