import { Link } from '../lib/router';
import { useOwnPictures } from '../features/pictures/api/pictures';
import { pictureLabel } from '../features/pictures/components/PictureCard';
import { PictureImage } from '../features/pictures/components/PictureImage';
import { THUMB_SIZES } from '../features/pictures/lib/page-sizes';
import { useProfile } from '../features/users/api/profile';
import { useSetProfileImage } from '../features/users/api/profile-image';
import '../features/pictures/pictures.css';

/** A grid of the user's own pictures; choosing one makes it their profile picture (docs/product.md#accounts). */
export default function SetProfilePage() {
  const { data: me } = useProfile();
  const { data: pictures, isPending } = useOwnPictures(me?.id);
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
                <PictureImage picture={p} alt="" sizes={THUMB_SIZES} />
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
