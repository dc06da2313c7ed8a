import { ErrorNote, Field } from '../../components/ui';
import { useProject, useRenameProject } from './api';

export function ProjectSection({ owner }: { owner: boolean }) {
  const project = useProject();
  const rename = useRenameProject();

  return (
    <section className="panel" aria-labelledby="project-title">
      <h2 id="project-title">Project</h2>
      <ErrorNote error={project.error ?? rename.error} />
      {project.data && (
        <form
          className="inline-form"
          onSubmit={(event) => {
            event.preventDefault();
            rename.mutate(String(new FormData(event.currentTarget).get('name')).trim());
          }}
        >
          <Field label="Project name" name="name" defaultValue={project.data.name} key={project.data.name} required maxLength={100} disabled={!owner} />
          {owner && (
            <button type="submit" className="primary" disabled={rename.isPending}>
              Rename
            </button>
          )}
          {rename.isSuccess && <p role="status">Saved.</p>}
        </form>
      )}
      {project.data && <p className="muted">Project id: {project.data.id}</p>}
    </section>
  );
}
