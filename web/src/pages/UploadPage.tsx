import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useNavigate } from '../lib/router';
import { isValidUploadPrice } from '../../../common/upload-rules';
import { fieldErrorsOf, newActionKey } from '../lib/api';
import { cleanDollarInput, isBlockedAmountKey } from '../lib/moneyInput';
import { uploadPicture } from '../features/pictures/api/mutations';
import { prepareImage, type PreparedImage } from '../features/pictures/lib/prepareImage';
import './UploadPage.css';

/** Input hints and empty-field flashes last 2 s (docs/product.md#upload). */
const FLASH_MS = 2_000;

type Ready = Extract<PreparedImage, { ok: true }> & { preview: string; name: string };

/** Price, a drop zone, the preview, Cancel and Release (docs/product.md#upload). */
export default function UploadPage() {
  const navigate = useNavigate();
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

  const take = async (file: File | undefined) => {
    if (!file) return;
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

  const cancel = () => {
    setImage(undefined);
    setError(undefined);
    setServerError(undefined);
    if (input.current) input.current.value = '';
  };

  const release = async () => {
    const missing = { image: !image, price: !isValidUploadPrice(price) };
    if (missing.image || missing.price) {
      setFlash(missing);
      return;
    }
    setBusy(true);
    setServerError(undefined);
    try {
      const { url } = await uploadPicture({
        file: image!.blob,
        fileName: image!.name.replace(/\.[^.]*$/, '') + '.jpg',
        amount: Number(price) * 100,
        actionKey: newActionKey(),
      });
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
