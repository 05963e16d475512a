import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CLUB_CATEGORIES } from '@shared/clubs';
import { clubInput, type ClubInput, type ClubView } from '@shared/clubs-schemas';
import { Markdown } from '@web/components/markdown';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Field } from '@web/components/ui/field';
import { FieldGroup, Select, TextArea } from '@web/components/ui/inputs';
import { ProgressBar, imageProblem, IMAGE_TYPES, uploadWithProgress } from '@web/components/ui/upload';
import { ApiError } from '@web/lib/api';
import { paths } from '@web/lib/paths';
import { queryKeys } from '@web/lib/query-keys';
import { useViewer } from '@web/lib/viewer';
import { clubCoverUrl, createClub, updateClub } from '../api/clubs';

type Values = {
  name: string;
  description: string;
  category: string;
  city: string;
  online: boolean;
  visibility: 'public' | 'approval';
  joinQuestion: string;
  rules: string;
};

const toInput = (v: Values): ClubInput => ({
  name: v.name,
  description: v.description,
  category: v.category as ClubInput['category'],
  city: v.city.trim() || null,
  online: v.online,
  visibility: v.visibility,
  joinQuestion: v.joinQuestion.trim() || null,
  rules: v.rules,
});

/** The club form: create (the creator becomes the owner) or edit settings. Messages per field, a Markdown preview, the cover. */
export function ClubForm({ club }: { club?: ClubView }) {
  const me = useViewer();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [v, setV] = useState<Values>(() => ({
    name: club?.name ?? '',
    description: club?.description ?? '',
    category: club?.category ?? '',
    city: club?.city ?? (club ? '' : (me.city ?? '')),
    online: club?.online ?? false,
    visibility: club?.visibility ?? 'public',
    joinQuestion: club?.joinQuestion ?? '',
    rules: club?.rules ?? '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [preview, setPreview] = useState(false);
  const [cover, setCover] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const set = <K extends keyof Values>(k: K, value: Values[K]) => {
    setV((old) => ({ ...old, [k]: value }));
    setErrors((old) => ({ ...old, [k]: '' }));
    setSaved(null);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const parsed = clubInput.safeParse(toInput(v));
    if (!parsed.success || !v.category) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error?.issues ?? []) fields[String(issue.path[0])] ??= issue.message;
      if (!v.category) fields.category = 'Choose a category';
      setErrors(fields);
      setFormError('Please correct the fields marked below.');
      return;
    }
    setBusy(true);
    try {
      const id = club ? (await updateClub(club.id, toInput(v)), club.id) : (await createClub(toInput(v))).id;
      if (cover) {
        setProgress(0);
        await uploadWithProgress(clubCoverUrl(id), cover, setProgress);
      }
      await queryClient.invalidateQueries({ queryKey: queryKeys.clubs });
      await queryClient.invalidateQueries({ queryKey: queryKeys.clubLists });
      if (club) {
        setSaved('Club saved');
        setCover(null);
      } else navigate(paths.club(id), { state: { flash: { text: 'Your club is ready: you are its owner' } } });
    } catch (err) {
      if (err instanceof ApiError) {
        setErrors(err.fields);
        setFormError(err.message);
      } else setFormError('Something went wrong. Please try again.');
    } finally {
      setBusy(false);
      setProgress(null);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      {formError && <Alert tone="error">{formError}</Alert>}
      {saved && <Alert tone="success">{saved}</Alert>}
      <Field label="Name" value={v.name} onChange={(e) => set('name', e.target.value)} error={errors.name} maxLength={80} required />
      <div>
        <div className="mb-1 flex justify-end">
          <div role="group" aria-label="Write or preview" className="flex gap-1 text-sm">
            <button
              type="button"
              aria-pressed={!preview}
              onClick={() => setPreview(false)}
              className={`rounded px-2 py-1 ${!preview ? 'bg-slate-200 font-semibold text-slate-900' : 'text-slate-700'}`}
            >
              Write
            </button>
            <button
              type="button"
              aria-pressed={preview}
              onClick={() => setPreview(true)}
              className={`rounded px-2 py-1 ${preview ? 'bg-slate-200 font-semibold text-slate-900' : 'text-slate-700'}`}
            >
              Preview
            </button>
          </div>
        </div>
        {preview ? (
          <div className="min-h-32 rounded-lg border border-slate-200 bg-slate-50 p-3" aria-label="Preview of the description">
            {v.description.trim() ? <Markdown source={v.description} /> : <p className="text-sm text-slate-600">Nothing to preview yet.</p>}
          </div>
        ) : (
          <TextArea
            label="About the club (Markdown)"
            rows={7}
            value={v.description}
            onChange={(e) => set('description', e.target.value)}
            error={errors.description}
            maxLength={10000}
            count={v.description.length}
            hint="What you do, who it is for, how often you meet. **bold**, *italic*, lists and links work."
          />
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Select label="Category" value={v.category} onChange={(e) => set('category', e.target.value)} error={errors.category}>
          <option value="">Choose…</option>
          {CLUB_CATEGORIES.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </Select>
        <Field
          label="City"
          value={v.city}
          onChange={(e) => set('city', e.target.value)}
          error={errors.city}
          hint="Leave empty for an online-only club"
          maxLength={120}
        />
      </div>
      <label className="flex items-center gap-2 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={v.online}
          onChange={(e) => set('online', e.target.checked)}
          className="h-4 w-4 rounded border-slate-400"
        />
        The club meets online
      </label>
      <FieldGroup legend="Who can join" error={errors.visibility}>
        <div className="space-y-2">
          {(
            [
              ['public', 'Anyone: people join at once, and everyone sees members and events'],
              ['approval', 'By approval: organisers approve requests; members and events are for members only'],
            ] as const
          ).map(([value, text]) => (
            <label key={value} className="flex items-start gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name="visibility"
                value={value}
                checked={v.visibility === value}
                onChange={() => set('visibility', value)}
                className="mt-0.5 h-4 w-4"
              />
              {text}
            </label>
          ))}
        </div>
      </FieldGroup>
      {v.visibility === 'approval' && (
        <Field
          label="Join question (optional)"
          value={v.joinQuestion}
          onChange={(e) => set('joinQuestion', e.target.value)}
          error={errors.joinQuestion}
          maxLength={300}
          hint="Asked of everyone who requests to join"
        />
      )}
      <TextArea
        label="Rules (optional)"
        rows={4}
        value={v.rules}
        onChange={(e) => set('rules', e.target.value)}
        error={errors.rules}
        maxLength={5000}
      />
      <div>
        <label htmlFor="club-cover" className="mb-1.5 block text-sm font-medium text-slate-800">
          Cover image (optional)
        </label>
        <input
          id="club-cover"
          type="file"
          accept={IMAGE_TYPES.join(',')}
          aria-describedby="club-cover-hint"
          onChange={(e) => {
            const file = e.target.files?.[0] ?? null;
            const problem = file ? imageProblem(file) : null;
            setErrors((old) => ({ ...old, cover: problem ?? '' }));
            setCover(problem ? null : file);
          }}
          className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-slate-800"
        />
        <p id="club-cover-hint" className={`mt-1 text-xs ${errors.cover ? 'font-medium text-red-700' : 'text-slate-600'}`}>
          {errors.cover || 'PNG, JPEG or WebP, at most 5 MB. Without one, the club gets a cover in its category’s colours.'}
        </p>
        {progress !== null && <ProgressBar value={progress} label="Uploading the cover" />}
      </div>
      <div className="flex justify-end">
        <Button type="submit" loading={busy}>
          {club ? 'Save settings' : 'Start the club'}
        </Button>
      </div>
    </form>
  );
}
