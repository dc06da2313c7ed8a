import { useState } from 'react';
import { ErrorNote, Field } from '../../components/ui';
import { useProject, useProjectSettings, useRenameProject } from './api';

export function ProjectSection({ owner }: { owner: boolean }) {
  const project = useProject();
  const rename = useRenameProject();
  const settings = useProjectSettings();
  const [wanted, setWanted] = useState<boolean | undefined>(undefined);

  return (
    <section className="panel" aria-labelledby="project-title">
      <h2 id="project-title">Project</h2>
      <ErrorNote error={project.error ?? rename.error ?? settings.error} />
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
      {project.data && (
        <div className="stack">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={wanted ?? project.data.requireCampaignApproval}
              disabled={!owner || settings.isPending}
              onChange={(event) => {
                // Shown at once (a controlled box would flip back until the request is under way), the answer's value once it settles.
                setWanted(event.target.checked);
                settings.mutate({ requireCampaignApproval: event.target.checked }, { onSettled: () => setWanted(undefined) });
              }}
            />
            Campaigns need a second owner&apos;s approval before they are sent
          </label>
          <p className="muted">
            {owner ? 'When on, a campaign is sent or scheduled only after an owner other than its last editor approved it; any later change asks for approval again.' : 'Only owners change this.'}
          </p>
        </div>
      )}
      {project.data && <p className="muted">Project id: {project.data.id}</p>}
    </section>
  );
}
