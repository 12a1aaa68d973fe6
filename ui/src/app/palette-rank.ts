// How the palette ranks a match: an entity whose name is exactly the query first ("dev" finds the
// agent Dev before "Instance settings"), then names the query starts, then words it starts, then
// cmdk's own fuzzy score below those. Items name themselves in their value as "<kind prefix><name>"
// (see NAME_PREFIXES) so the name can be told from the rest.
import { defaultFilter } from 'cmdk';

/** The prefixes item values start with before their name: "Agent Dev", "Go to Costs". */
const NAME_PREFIXES = ['agent ', 'go to '];

const EXACT = 1;
const PREFIX = 0.9;
const WORD = 0.8;
/** cmdk's fuzzy score (0..1) is scaled under every rank above. */
const FUZZY_SCALE = 0.7;

/** The names an item value can be found by: the whole, the part after its kind, an issue's identifier. */
function namesOf(value: string): string[] {
  const lower = value.toLowerCase().trim();
  const prefix = NAME_PREFIXES.find((candidate) => lower.startsWith(candidate));
  const name = prefix ? lower.slice(prefix.length) : lower;
  const [first = ''] = name.split(/\s+/);
  return [name, first];
}

export function rankMatch(value: string, search: string, keywords?: string[]): number {
  const query = search.toLowerCase().trim();
  if (!query) return 1;
  const names = namesOf(value);
  if (names.includes(query)) return EXACT;
  if (names.some((name) => name.startsWith(query))) return PREFIX;
  if (
    value
      .toLowerCase()
      .split(/\s+/)
      .some((word) => word.startsWith(query))
  )
    return WORD;
  return defaultFilter(value, search, keywords) * FUZZY_SCALE;
}
