// Imported for its effect, before any module that reads `navigator.language` as it loads (uPlot): see locale.ts.
import { ensureSupportedNavigatorLocale } from './locale';

ensureSupportedNavigatorLocale();
