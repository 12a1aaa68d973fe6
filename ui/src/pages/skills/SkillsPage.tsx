// The company's skill library: every skill with its key, source and pin; import from any source the
// server reads (with what it warned about), and a new empty skill to write here.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { fullTime, timeAgo } from '../../lib/format';
import { skillsQuery, skillUpdateStatusQuery, type Skill } from '../../queries/skills';
import { CreateSkillForm, ImportSkillsForm } from './ImportSkills';
import { isTracked, pinnedCommit, shortCommit, SOURCE_LABELS, TRUST_LABELS, trustBadge } from './skill-labels';

export function SkillsPage() {
  const { companyId = '' } = useParams();
  const skills = useQuery(skillsQuery(companyId));

  return (
    <div className="page">
      <PageHeader title="Skills">
        <p className="muted">
          Instructions and helpers agents load when they run. Import them, write your own, then attach them to agents.
        </p>
      </PageHeader>
      <div className="skills-forms">
        <ImportSkillsForm companyId={companyId} />
        <CreateSkillForm companyId={companyId} />
      </div>
      {skills.isPending ? (
        <Loading label="Loading skills" />
      ) : skills.isError ? (
        <ErrorNotice error={skills.error} title="Skills could not be loaded" retry={() => skills.refetch()} />
      ) : (
        <table className="table">
          <caption className="visually-hidden">The company's skills, by name</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Key</th>
              <th scope="col">Source</th>
              <th scope="col">Version</th>
              <th scope="col">Contents</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {skills.data.map((skill) => {
              const commit = pinnedCommit(skill);
              return (
                <tr key={skill.id}>
                  <th scope="row">
                    <Link to={`/c/${companyId}/skills/${skill.id}`}>{skill.name}</Link>
                    {skill.required && <span className="badge skills-required">Required</span>}
                  </th>
                  <td className="mono skills-key">{skill.key}</td>
                  <td>
                    {SOURCE_LABELS[skill.sourceKind]}
                    {skill.sourceLocator && <div className="muted mono skills-locator">{skill.sourceLocator}</div>}
                  </td>
                  <td>
                    {commit ? (
                      <span className="mono" title={commit}>
                        {shortCommit(commit)}
                      </span>
                    ) : (
                      <span className="muted">
                        {skill.sourceKind === 'service_bundled' ? 'Server release' : 'Not tracked'}
                      </span>
                    )}
                    {isTracked(skill.sourceKind) && <UpdateCheck companyId={companyId} skill={skill} />}
                  </td>
                  <td>
                    <span className={`badge ${trustBadge(skill.trustLevel)}`}>{TRUST_LABELS[skill.trustLevel]}</span>
                  </td>
                  <td>
                    <time dateTime={skill.updatedAt} title={fullTime(skill.updatedAt)}>
                      {timeAgo(skill.updatedAt)}
                    </time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** A code-host skill's update status, checked when asked (one code-host call each). */
function UpdateCheck({ companyId, skill }: { companyId: string; skill: Skill }) {
  const [asked, setAsked] = useState(false);
  const status = useQuery({ ...skillUpdateStatusQuery(companyId, skill.id), enabled: asked });
  if (!asked && !status.data)
    return (
      <div>
        <button
          type="button"
          className="skills-check"
          onClick={() => setAsked(true)}
          aria-label={`Check ${skill.name} for an update`}
        >
          Check
        </button>
      </div>
    );
  if (status.isError)
    return (
      <ErrorNotice error={status.error} title="The update status could not be checked" retry={() => status.refetch()} />
    );
  if (!status.data) return <div className="muted">Checking…</div>;
  return (
    <div>
      {status.data.updateAvailable ? (
        <Link to={`/c/${companyId}/skills/${skill.id}`} className="badge badge-warning">
          Update available
        </Link>
      ) : (
        <span className="badge badge-success">Up to date</span>
      )}
    </div>
  );
}
