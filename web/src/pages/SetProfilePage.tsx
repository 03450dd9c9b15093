import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { fetchPictures } from '../features/pictures/api/pictures';
import { useSetProfileImage } from '../features/pictures/api/mutations';
import { pictureLabel } from '../features/pictures/components/PictureCard';
import { useProfile } from '../lib/session';
import '../features/pictures/pictures.css';

/** How many of one's own pictures the grid offers: the server's largest page. */
const GRID_SIZE = 100;

/** A grid of the user's own pictures; choosing one makes it their profile picture (SPEC §2). */
export default function SetProfilePage() {
  const { data: me } = useProfile();
  const { data: pictures, isPending } = useQuery({
    queryKey: ['pictures', 'own', me?.id] as const,
    queryFn: () => fetchPictures({ sort: 'profile', authorId: me!.id }, { offset: 0, limit: GRID_SIZE }),
    enabled: me !== undefined,
  });
  const choose = useSetProfileImage();
  const current = me?.profileImageUrl;

  return (
    <section className="page" aria-labelledby="set-profile-title">
      <h1 id="set-profile-title">Set profile picture</h1>
      {isPending ? (
        <p className="loading">Loading...</p>
      ) : !pictures || pictures.length === 0 ? (
        <>
          <p>You have no pictures to set as profile</p>
          <Link to="/upload">Upload a picture</Link>
        </>
      ) : (
        <>
          <p className="muted">Choose the picture people see beside your name.</p>
          <div className="picture-grid" role="group" aria-label="Your pictures">
            {pictures.map((p) => (
              <button
                key={p.id}
                type="button"
                className="picture-grid__item"
                aria-pressed={current === p.url}
                aria-label={`Use ${pictureLabel(p)} as profile picture`}
                disabled={choose.isPending}
                onClick={() => choose.mutate(p.id)}
              >
                <img src={p.url} alt="" loading="lazy" />
              </button>
            ))}
          </div>
          {choose.isSuccess && (
            <p className="form-success" role="status">
              Profile picture set.
            </p>
          )}
          {choose.isError && (
            <p className="form-error" role="alert">
              The profile picture could not be set. Please try again.
            </p>
          )}
        </>
      )}
    </section>
  );
}
