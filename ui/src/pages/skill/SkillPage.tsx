// One skill: what it is and where it came from, its update status, its files (viewed, and edited when
// the skill is editable), and the agents it is attached to.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../api/client';
import { Dialog, DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { PageHeader } from '../../components/PageHeader';
import { skillKeys, skillQuery } from '../../queries/skills';
import { SOURCE_LABELS, TRUST_LABELS, trustBadge } from '../skills/skill-labels';
import { SkillAgents } from './SkillAgents';
import { SkillFiles } from './SkillFiles';
import { SkillUpdate } from './SkillUpdate';

export function SkillPage() {
  const { companyId = '', skillId = '' } = useParams();
  const skill = useQuery(skillQuery(companyId, skillId));

  if (skill.isPending) return <Loading label="Loading the skill" />;
  if (skill.isError)
    return (
      <div className="page">
        <PageHeader title="Skill" />
        <ErrorNotice error={skill.error} title="The skill could not be loaded" retry={() => skill.refetch()} />
      </div>
    );
  const s = skill.data;
  return (
    <div className="page">
      <PageHeader title={s.name}>
        <div className="skill-meta">
          <span className="badge">{SOURCE_LABELS[s.sourceKind]}</span>
          <span className={`badge ${trustBadge(s.trustLevel)}`}>{TRUST_LABELS[s.trustLevel]}</span>
          {s.required && <span className="badge">Required</span>}
          {!s.editable && <span className="badge">Read-only</span>}
          <span className="mono muted">{s.key}</span>
        </div>
        {s.description && <p>{s.description}</p>}
        {s.sourceLocator && (
          <p className="muted">
            Imported from <span className="mono">{s.sourceLocator}</span>
          </p>
        )}
      </PageHeader>
      <SkillUpdate companyId={companyId} skill={s} />
      <SkillFiles companyId={companyId} skill={s} />
      <SkillAgents companyId={companyId} skill={s} />
      {s.editable && <DeleteSkill companyId={companyId} skillId={s.id} name={s.name} attached={s.usage.agentCount} />}
    </div>
  );
}

function DeleteSkill({
  companyId,
  skillId,
  name,
  attached,
}: {
  companyId: string;
  skillId: string;
  name: string;
  attached: number;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    // 204 without a body; a refusal throws in the client's middleware.
    mutationFn: async () => {
      await api.DELETE('/api/companies/{companyId}/skills/{skillId}', { params: { path: { companyId, skillId } } });
    },
    onSuccess: () => {
      // Leave first: refetching this skill now would only find it gone. Not awaited: the page must
      // be left before the refetch below; the navigation's failures show in the route's error element.
      void navigate(`/c/${companyId}/skills`);
      queryClient.removeQueries({ queryKey: skillKeys.detail(companyId, skillId) });
      return queryClient.invalidateQueries({ queryKey: skillKeys.all(companyId) });
    },
  });
  return (
    <section className="skill-section" aria-labelledby="skill-delete-heading">
      <h2 id="skill-delete-heading">Delete</h2>
      <button type="button" className="danger" onClick={() => setConfirming(true)}>
        Delete skill
      </button>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete ${name}?`}
        description={
          attached > 0
            ? `Its files go, and it is detached from ${attached} agent${attached === 1 ? '' : 's'}.`
            : 'Its files go with it.'
        }
      >
        {remove.isError && <ErrorNotice error={remove.error} title="The skill was not deleted" />}
        <DialogActions
          onCancel={() => setConfirming(false)}
          onConfirm={() => remove.mutate()}
          label="Delete"
          busyLabel="Deleting…"
          busy={remove.isPending}
          tone="danger"
        />
      </Dialog>
    </section>
  );
}
