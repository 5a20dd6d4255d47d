/** The page templates by id. */
import type { TemplateId, TemplateSpec } from '../model';
import { blog } from './blog';
import { classic } from './classic';
import { legacy } from './legacy';
import { magazine } from './magazine';

export const TEMPLATES: Record<TemplateId, TemplateSpec> = { classic, blog, magazine, legacy };

export { renderHome } from './home';
