// Whether a page scrolls sideways: the board's pages must not at 390 px (a table may scroll inside its
// own box, marked `.table`, `.table-scroll` or `[data-scrolls-sideways]`).
import type { Page } from 'playwright-core';

/** The page's sideways overflow: the document's and the page scroller's (<main>), in px past the viewport. */
export async function sidewaysOverflow(page: Page): Promise<{ document: number; main: number; widest: string }> {
  return page.evaluate(() => {
    const doc = document.scrollingElement as HTMLElement;
    const main = document.getElementById('main') as HTMLElement;
    const wide = [...document.querySelectorAll<HTMLElement>('#main *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((el) => !el.closest('.table, .table-scroll, [data-scrolls-sideways]'))
      .slice(0, 3)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}.${[...el.classList].join('.')} (${Math.round(el.getBoundingClientRect().right)} px)`,
      );
    return {
      document: doc.scrollWidth - window.innerWidth,
      main: main.scrollWidth - main.clientWidth,
      widest: wide.join(', '),
    };
  });
}
