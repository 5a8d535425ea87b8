export * from './auth/auth.ts';
export * from './contacts/contacts.ts';
export * from './forms/forms.ts';
export * from './health/health.ts';
export * from './jobs/jobs.ts';
export * from './lists/lists.ts';
export * from './mailings/mailings.ts';
export * from './settings/settings.ts';
