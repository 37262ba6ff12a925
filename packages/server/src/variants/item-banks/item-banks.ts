import type { ItemBankAdapter } from '../variant.types.js';
import { bigfiveOrg } from './bigfive-org.js';

/** The adapters a variant may name in `itemBank.adapter`. */
export const itemBanks: Readonly<Record<string, ItemBankAdapter>> = { [bigfiveOrg.name]: bigfiveOrg };
