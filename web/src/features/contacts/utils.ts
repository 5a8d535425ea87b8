/** "Jane Doe" from first and last name (either may be empty). */
export const contactName = (contact: { firstName: string; lastName: string }): string =>
  [contact.firstName, contact.lastName].filter((part) => part.trim() !== '').join(' ');
