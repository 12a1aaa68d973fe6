// A skill's files: the tree (folders from the paths), the chosen file (?file=, SKILL.md by default)
// as text, and, for editable skills, editing it or adding a file. Saving goes through PATCH .../files,
// whose refusals (an invalid SKILL.md, a bound) are shown as the server words them.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { api, data } from '../../api/client';
import { DialogActions } from '../../components/Dialog';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Loading } from '../../components/Loading';
import { skillFileQuery, skillKeys, type SkillDetail } from '../../queries/skills';

type FileEntry = SkillDetail['files'][number];

interface Folder {
  name: string;
  path: string;
  folders: Folder[];
  files: FileEntry[];
}

/** Folders first, then files, each by name. */
function buildTree(files: FileEntry[]): Folder {
  const root: Folder = { name: '', path: '', folders: [], files: [] };
  for (const file of files) {
    const parts = file.path.split('/');
    let folder = root;
    for (const part of parts.slice(0, -1)) {
      const path = folder.path ? `${folder.path}/${part}` : part;
      let next = folder.folders.find((f) => f.name === part);
      if (!next) {
        next = { name: part, path, folders: [], files: [] };
        folder.folders.push(next);
      }
      folder = next;
    }
    folder.files.push(file);
  }
  const sort = (folder: Folder) => {
    folder.folders.sort((a, b) => a.name.localeCompare(b.name));
    folder.files.sort((a, b) => a.path.localeCompare(b.path));
    folder.folders.forEach(sort);
  };
  sort(root);
  return root;
}

const fileName = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export function SkillFiles({ companyId, skill }: { companyId: string; skill: SkillDetail }) {
  const [search, setSearch] = useSearchParams();
  const selected = search.get('file') ?? 'SKILL.md';
  const [adding, setAdding] = useState<string | null>(null);
  const select = (path: string) => {
    setAdding(null);
    setSearch({ file: path }, { replace: true });
  };
  const tree = buildTree(skill.files);

  return (
    <section className="skill-section" aria-labelledby="skill-files-heading">
      <h2 id="skill-files-heading">Files</h2>
      <div className="skill-files">
        <nav aria-label="Skill files" className="skill-tree">
          <TreeLevel folder={tree} selected={adding ?? selected} onSelect={select} />
          {skill.editable && <AddFile existing={skill.files.map((f) => f.path)} onAdd={setAdding} />}
        </nav>
        {adding ? (
          <FileEditor
            key={`new-${adding}`}
            companyId={companyId}
            skillId={skill.id}
            path={adding}
            initial=""
            onDone={(saved) => (saved ? select(adding) : setAdding(null))}
          />
        ) : (
          <FileView key={selected} companyId={companyId} skillId={skill.id} path={selected} />
        )}
      </div>
    </section>
  );
}

function TreeLevel({
  folder,
  selected,
  onSelect,
}: {
  folder: Folder;
  selected: string;
  onSelect: (path: string) => void;
}) {
  return (
    <ul>
      {folder.folders.map((sub) => (
        <li key={sub.path}>
          <span className="skill-tree-folder">{sub.name}/</span>
          <TreeLevel folder={sub} selected={selected} onSelect={onSelect} />
        </li>
      ))}
      {folder.files.map((file) => (
        <li key={file.path}>
          <button
            type="button"
            className="skill-tree-file"
            aria-current={file.path === selected ? 'true' : undefined}
            onClick={() => onSelect(file.path)}
            title={`${file.path}, ${file.size} bytes`}
          >
            {fileName(file.path)}
          </button>
        </li>
      ))}
    </ul>
  );
}

function AddFile({ existing, onAdd }: { existing: string[]; onAdd: (path: string) => void }) {
  const [path, setPath] = useState('');
  const taken = existing.includes(path.trim());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!taken) onAdd(path.trim());
    setPath('');
  };
  return (
    <form className="skill-add-file" onSubmit={submit}>
      <label htmlFor="skill-new-file">New file</label>
      <input
        id="skill-new-file"
        className="mono"
        required
        maxLength={512}
        placeholder="references/notes.md"
        value={path}
        aria-invalid={taken || undefined}
        aria-describedby={taken ? 'skill-new-file-taken' : undefined}
        onChange={(event) => setPath(event.target.value)}
      />
      {taken && (
        <span id="skill-new-file-taken" className="field-error">
          That file exists: choose it in the list to edit it.
        </span>
      )}
      <button type="submit" disabled={taken}>
        Add
      </button>
    </form>
  );
}

function FileView({ companyId, skillId, path }: { companyId: string; skillId: string; path: string }) {
  const [editing, setEditing] = useState(false);
  const file = useQuery(skillFileQuery(companyId, skillId, path));
  if (file.isPending) return <Loading label={`Loading ${path}`} />;
  if (file.isError)
    return <ErrorNotice error={file.error} title={`${path} could not be loaded`} retry={() => file.refetch()} />;
  const f = file.data;
  if (editing)
    return (
      <FileEditor
        companyId={companyId}
        skillId={skillId}
        path={path}
        initial={f.content}
        onDone={() => setEditing(false)}
      />
    );
  return (
    <div className="skill-file">
      <div className="skill-file-header">
        <h3 className="mono">{f.path}</h3>
        <span className="muted">
          {f.kind}, {f.size} bytes
        </span>
        {f.editable && f.encoding === 'utf8' && (
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
        )}
      </div>
      {f.encoding === 'utf8' ? (
        <pre className="skill-file-text" tabIndex={0} aria-label={`Contents of ${f.path}`}>
          {f.content}
        </pre>
      ) : (
        <p className="muted">A binary file: not shown.</p>
      )}
    </div>
  );
}

function FileEditor({
  companyId,
  skillId,
  path,
  initial,
  onDone,
}: {
  companyId: string;
  skillId: string;
  path: string;
  initial: string;
  onDone: (saved: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [content, setContent] = useState(initial);
  const save = useMutation({
    mutationFn: async () =>
      data(
        await api.PATCH('/api/companies/{companyId}/skills/{skillId}/files', {
          params: { path: { companyId, skillId } },
          body: { path, content },
        }),
      ),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: skillKeys.all(companyId) });
      onDone(true);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form className="skill-file" onSubmit={submit}>
      <div className="skill-file-header">
        <h3 className="mono">{path}</h3>
      </div>
      <label htmlFor="skill-file-content" className="visually-hidden">
        Contents of {path}
      </label>
      <textarea
        id="skill-file-content"
        className="mono skill-file-editor"
        value={content}
        rows={24}
        spellCheck={false}
        onChange={(event) => setContent(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) submit(event);
        }}
      />
      {save.isError && <ErrorNotice error={save.error} title={`${path} was not saved`} />}
      <DialogActions onCancel={() => onDone(false)} label="Save" busyLabel="Saving…" busy={save.isPending} />
      <p className="muted">⌘/Ctrl+Enter saves.</p>
    </form>
  );
}
