/**
 * Where "Help", "Support Ticket" and "Report Issue" lead: the external support-request page.
 * Set VITE_SUPPORT_URL at build time; the default opens an e-mail to support.
 */
export const SUPPORT_URL: string = import.meta.env.VITE_SUPPORT_URL || 'mailto:support@example.org';
