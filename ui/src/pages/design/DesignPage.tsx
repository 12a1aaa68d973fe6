// /_design: every primitive in every state, light and dark, for whoever builds the board and for the
// browser tests' screenshots and accessibility checks. Each section is its own module in sections/;
// add one by appending it to SECTIONS.
import { Select } from '../../components/ui/Combobox';
import { setThemePreference, THEME_PREFERENCES, type ThemePreference, useThemePreference } from '../../lib/theme';
import { SECTIONS } from './sections';

export function DesignPage() {
  const theme = useThemePreference();
  return (
    <main id="main" className="design-page">
      <header className="design-header">
        <div>
          <h1>Design system</h1>
          <p className="muted">Every primitive in every state. Not linked from the board.</p>
        </div>
        <Select<ThemePreference>
          aria-label="Theme"
          value={theme}
          onChange={setThemePreference}
          options={THEME_PREFERENCES}
        />
      </header>
      <nav aria-label="Sections" className="design-row">
        {SECTIONS.map((section) => (
          <a key={section.id} href={`#${section.id}`}>
            {section.title}
          </a>
        ))}
      </nav>
      {SECTIONS.map(({ id, title, Component }) => (
        <section key={id} id={id} className="design-section" aria-labelledby={`${id}-title`}>
          <h2 id={`${id}-title`}>{title}</h2>
          <Component />
        </section>
      ))}
    </main>
  );
}
