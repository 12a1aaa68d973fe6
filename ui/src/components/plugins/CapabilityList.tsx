// What a plugin may do, in sentences grouped by kind (read, change, run on its own, show on the
// board): what an operator sees before installing anything runs, and what a company's board consents
// to. `added` marks what an upgrade asks for beyond an earlier consent.
import { CAPABILITY_GROUPS, capabilityGroup, capabilitySentence } from '../../lib/plugin-words';

export function CapabilityList({
  capabilities,
  net = [],
  added = [],
  label,
}: {
  capabilities: string[];
  net?: string[];
  added?: string[];
  /** Names the list for assistive technology ("What Kitchen sink asks for"). */
  label: string;
}) {
  if (capabilities.length === 0) return <p className="muted">It asks for nothing: it can only run when called.</p>;
  return (
    <div className="plugin-capabilities" role="group" aria-label={label}>
      {CAPABILITY_GROUPS.map(({ group, heading }) => {
        const listed = capabilities.filter((key) => capabilityGroup(key) === group);
        if (listed.length === 0) return null;
        return (
          <div key={group} className="plugin-capability-group">
            <p className="plugin-capability-heading">{heading}</p>
            <ul>
              {listed.map((key) => (
                <li key={key} className={group === 'write' ? 'plugin-capability-write' : undefined}>
                  {capabilitySentence(key, net)}
                  {added.includes(key) && <span className="badge badge-warning plugin-capability-new">New</span>}
                </li>
              ))}
            </ul>
          </div>
        );
      })}
    </div>
  );
}
