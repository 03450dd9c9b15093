import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useNavigate, useSearchParams } from '../../../lib/router';
import { isValidUploadPrice } from '../../../../../common/upload-rules';
import { fieldErrorsOf } from '../../../lib/api';
import { cleanDollarInput, isBlockedAmountKey } from '../../../lib/money-input';
import { openPopup } from '../../../lib/popups';
import { useLoggedIn } from '../../../lib/session';
import { dropSharedImage, readSharedImage } from '../../../lib/shared-image';
import { useUploadPicture } from '../api/mutations';
import { prepareImage, type PreparedImage } from '../lib/prepare-image';

/** Input hints and empty-field flashes last 2 s. */
const FLASH_MS = 2_000;

type Ready = Extract<PreparedImage, { ok: true }> & { preview: string; name: string };

/**
 * The upload page's editor: price, a drop zone, the preview, Cancel and Release. With `?shared=1` it starts with the
 * image shared to the installed app (web/src/lib/shared-image.ts); `?shared=failed` says why none arrived.
 */
export function UploadEditor() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const shared = params.get('shared');
  const loggedIn = useLoggedIn();
  const [fromShare, setFromShare] = useState(false);
  const upload = useUploadPicture();
  const [price, setPrice] = useState('');
  const [image, setImage] = useState<Ready | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);
  const [flash, setFlash] = useState<{ image: boolean; price: boolean }>({ image: false, price: false });
  const [serverError, setServerError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => () => image && URL.revokeObjectURL(image.preview), [image]);
  useEffect(() => {
    if (!flash.image && !flash.price) return;
    const timer = setTimeout(() => setFlash({ image: false, price: false }), FLASH_MS);
    return () => clearTimeout(timer);
  }, [flash]);

  const take = async (file: File | undefined, viaShare = false) => {
    if (!file) return;
    setFromShare(viaShare);
    setError(undefined);
    setServerError(undefined);
    const prepared = await prepareImage(file);
    if (!prepared.ok) {
      setImage(undefined);
      setError(prepared.error);
      return;
    }
    setImage({ ...prepared, preview: URL.createObjectURL(prepared.blob), name: file.name });
  };

  useEffect(() => {
    if (shared !== '1') return;
    let live = true;
    void readSharedImage().then((file) => {
      if (live) void take(file, true);
    });
    return () => {
      live = false;
    };
    // Once per arrival from a share: `take` only sets this editor's state.
  }, [shared]);

  const cancel = () => {
    setImage(undefined);
    setError(undefined);
    setServerError(undefined);
    if (input.current) input.current.value = '';
  };

  const release = async () => {
    // A visitor who arrived with a shared image signs in here first; the image stays kept meanwhile.
    if (!loggedIn) {
      openPopup({ kind: 'signIn' });
      return;
    }
    const missing = { image: !image, price: !isValidUploadPrice(price) };
    if (missing.image || missing.price) {
      setFlash(missing);
      return;
    }
    setBusy(true);
    setServerError(undefined);
    try {
      const { url } = await upload.run({
        file: image!.blob,
        fileName: image!.name.replace(/\.[^.]*$/, '') + '.jpg',
        amount: Number(price) * 100,
      });
      if (fromShare) await dropSharedImage().catch(() => undefined);
      navigate(url);
    } catch (err) {
      // A 402 has already opened the top-up popup with the shortfall.
      const list = fieldErrorsOf(err);
      if (list?.length) setServerError(list[0]!.errorText);
      else if (!(err instanceof Error && 'status' in err && (err as { status: number }).status === 402)) {
        setServerError('The picture could not be uploaded. Please try again.');
      }
    } finally {
      setBusy(false);
    }
  };

  const drop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    void take(e.dataTransfer.files[0]);
  };

  return (
    <section className="page upload" aria-labelledby="upload-title">
      <h1 id="upload-title">Upload a picture</h1>
      {shared === 'failed' && (
        <p className="form-error" role="alert">
          The shared picture did not arrive. Open the app once, then share it again, or choose it below.
        </p>
      )}
      {shared === '1' && !loggedIn && <p className="muted">Sign in to put this picture on the wall: it stays here.</p>}
      <div className={`field${flash.price ? ' field--flash' : ''}`}>
        <label htmlFor="upload-price">Price in dollars</label>
        <input
          id="upload-price"
          inputMode="numeric"
          pattern="[1-9][0-9]*"
          maxLength={6}
          placeholder="5"
          value={price}
          aria-invalid={flash.price || undefined}
          aria-describedby="upload-price-hint"
          onKeyDown={(e) => {
            if (isBlockedAmountKey(e.key)) e.preventDefault();
          }}
          onChange={(e) => setPrice(cleanDollarInput(e.target.value))}
        />
        <p id="upload-price-hint" className={flash.price ? 'field__error' : 'muted upload__hint'}>
          {flash.price ? 'Enter a price of at least $1.' : 'The price is the first money on your picture.'}
        </p>
      </div>

      {image ? (
        <figure className="upload__preview">
          <img src={image.preview} alt="Preview of your picture" width={image.width} height={image.height} />
          {image.note && (
            <figcaption className="muted" role="status">
              {image.note}
            </figcaption>
          )}
        </figure>
      ) : (
        <label
          className={`dropzone${dragging ? ' dropzone--over' : ''}${flash.image ? ' dropzone--flash' : ''}`}
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          data-testid="dropzone"
        >
          <input
            ref={input}
            type="file"
            accept="image/*"
            className="dropzone__input"
            aria-label="Choose a picture"
            onChange={(e) => void take(e.target.files?.[0])}
          />
          <span className="dropzone__text">Drop a picture here, or click to choose one</span>
          <span className="muted">At least 128 px a side, at most 4 MB</span>
          {flash.image && <span className="field__error">Choose a picture first.</span>}
        </label>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {serverError && (
        <p className="form-error" role="alert">
          {serverError}
        </p>
      )}
      <div className="row upload__actions">
        <button type="button" className="button" onClick={cancel} disabled={busy}>
          Cancel
        </button>
        <button
          type="button"
          className="button button--primary"
          onClick={() => void release()}
          disabled={error !== undefined || busy}
        >
          {busy ? 'Releasing...' : 'Release'}
        </button>
      </div>
    </section>
  );
}
