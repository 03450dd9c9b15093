import { useState } from 'react';
import type { Rotation } from '../../../../../common/api/lootboxes';
import { CLIENT_SEED_PATTERN } from '../../../../../common/fairness';
import { Field } from '../../../components/ui/Field';
import { fieldErrorsOf } from '../../../lib/api';
import { useFairness, useRotateSeed, useSetClientSeed } from '../api/fairness';

const SEED_RULE = 'A client seed is 1 to 64 characters: letters, digits and symbols, no spaces.';

/** A fresh client seed: 16 random bytes in hex, so the user need not think of one. */
const randomSeed = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The commitment in force, the client seed (the user's to set) and rotating the server seed. */
export function SeedPanel() {
  const { data: fairness, isError } = useFairness();
  const setSeed = useSetClientSeed();
  const rotate = useRotateSeed();
  const [draft, setDraft] = useState<string | undefined>();
  const [seedError, setSeedError] = useState<string | undefined>();
  const [saved, setSaved] = useState(false);
  const [rotation, setRotation] = useState<Rotation | undefined>();
  const [rotateError, setRotateError] = useState(false);
  const value = draft ?? fairness?.clientSeed ?? '';

  const save = async () => {
    setSaved(false);
    if (!CLIENT_SEED_PATTERN.test(value)) {
      setSeedError(SEED_RULE);
      return;
    }
    setSeedError(undefined);
    try {
      await setSeed.run(value);
      setDraft(undefined);
      setSaved(true);
    } catch (err) {
      setSeedError(fieldErrorsOf(err)?.[0]?.errorText ?? 'The client seed could not be set. Please try again.');
    }
  };

  const doRotate = async () => {
    setRotateError(false);
    try {
      setRotation(await rotate.run(undefined));
    } catch {
      setRotateError(true);
    }
  };

  return (
    <section className="lootbox-card" aria-labelledby="seeds-title">
      <h2 id="seeds-title">Server seed</h2>
      {!fairness ? (
        <p className="muted">{isError ? 'The seeds could not be loaded.' : 'Loading...'}</p>
      ) : (
        <dl className="fairness__facts">
          <div>
            <dt>Hash of the server seed your next openings use</dt>
            <dd className="hex" data-testid="server-seed-hash">
              {fairness.serverSeedHash}
            </dd>
          </div>
          <div>
            <dt>Nonce of your next opening</dt>
            <dd data-testid="nonce">{fairness.nonce}</dd>
          </div>
        </dl>
      )}
      <p className="muted fairness__explain">
        Rotating reveals the server seed in use, so every opening made with it can be checked below, and commits to a
        new one. The nonce starts again at 0.
      </p>
      <button type="button" className="button" disabled={!fairness || rotate.isPending} onClick={() => void doRotate()}>
        {rotate.isPending ? 'Rotating...' : 'Rotate server seed'}
      </button>
      {rotateError && (
        <p className="form-error" role="alert">
          The server seed could not be rotated. Please try again.
        </p>
      )}
      {rotation && (
        <div className="fairness__revealed" role="status">
          <p>
            <strong>Revealed server seed:</strong> <span className="hex">{rotation.previousServerSeed}</span>
          </p>
          <p>
            <strong>Its hash:</strong> <span className="hex">{rotation.previousServerSeedHash}</span>
          </p>
        </div>
      )}

      <h2 className="fairness__subtitle">Client seed</h2>
      <p className="muted fairness__explain">
        Your own part of every draw: set it to anything you like before opening, so the server could not have chosen the
        outcome alone.
      </p>
      <form
        className="fairness__seed-form"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Field
          label="Client seed"
          name="clientSeed"
          value={value}
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          error={seedError}
          onChange={(e) => {
            setDraft(e.target.value);
            setSaved(false);
          }}
        />
        <button type="button" className="button" onClick={() => setDraft(randomSeed())}>
          Random
        </button>
        <button type="submit" className="button button--primary" disabled={!fairness || setSeed.isPending}>
          Set client seed
        </button>
      </form>
      {saved && (
        <p className="form-success" role="status">
          Client seed set. Your next opening uses it.
        </p>
      )}
    </section>
  );
}
