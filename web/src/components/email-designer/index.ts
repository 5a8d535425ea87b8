export { EmailDesigner, EMAIL_DESIGNER_CHANGE_DEBOUNCE_MS, type EmailDesignerProps } from './email-designer';
export { designToHtml, isDesignerHtml, parseDesignerHtml } from './html';
export type { Block, BlockType } from './model';
