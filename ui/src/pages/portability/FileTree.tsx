// The export preview's file inventory as a folder tree: folders collapse (native <details>, so
// Enter/Space toggle them), each file shows its kind and size.
import { bytes } from './bytes';

export interface InventoryFile {
  path: string;
  kind: string;
  bytes: number;
}

interface Folder {
  name: string;
  folders: Map<string, Folder>;
  files: { name: string; file: InventoryFile }[];
  bytes: number;
  count: number;
}

function treeOf(files: InventoryFile[]): Folder {
  const root: Folder = { name: '', folders: new Map(), files: [], bytes: 0, count: 0 };
  for (const file of files) {
    const slash = file.path.lastIndexOf('/');
    const folderNames = slash === -1 ? [] : file.path.slice(0, slash).split('/');
    let folder = root;
    root.bytes += file.bytes;
    root.count += 1;
    for (const segment of folderNames) {
      let next = folder.folders.get(segment);
      if (!next) {
        next = { name: segment, folders: new Map(), files: [], bytes: 0, count: 0 };
        folder.folders.set(segment, next);
      }
      next.bytes += file.bytes;
      next.count += 1;
      folder = next;
    }
    folder.files.push({ name: file.path.slice(slash + 1), file });
  }
  return root;
}

function FolderContents({ folder }: { folder: Folder }) {
  const folders = [...folder.folders.values()].sort((a, b) => a.name.localeCompare(b.name));
  const files = [...folder.files].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <ul className="file-tree-list">
      {folders.map((child) => (
        <li key={child.name}>
          {/* Top-level folders start open; deeper ones (one per agent, task...) closed, to keep it short. */}
          <details open={folder.name === ''}>
            <summary>
              <span className="file-tree-name">{child.name}/</span>
              <span className="muted">
                {child.count} {child.count === 1 ? 'file' : 'files'} · {bytes(child.bytes)}
              </span>
            </summary>
            <FolderContents folder={child} />
          </details>
        </li>
      ))}
      {files.map(({ name, file }) => (
        <li key={name} className="file-tree-file">
          <span className="file-tree-name">{name}</span>
          <span className="badge">{file.kind}</span>
          <span className="muted">{bytes(file.bytes)}</span>
        </li>
      ))}
    </ul>
  );
}

export function FileTree({ rootPath, files }: { rootPath: string; files: InventoryFile[] }) {
  return (
    <div className="file-tree" role="group" aria-label={`Files of the bundle ${rootPath}`}>
      <div className="file-tree-root">{rootPath}/</div>
      <FolderContents folder={treeOf(files)} />
    </div>
  );
}
