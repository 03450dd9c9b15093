import { useState, type ReactNode } from 'react';
import { PUSH_TYPE_LABELS, PUSH_TYPES, type PushType } from '../../../../../common/push';
import { LoadFailed } from '../../../components/ui/LoadFailed';
import { useDevice, usePreferences, useSavePreference, useTurnOff, useTurnOn } from '../api/push';
import { turnOnErrorText, type DeviceState } from '../lib/device';
import '../push.css';

/*
 * The "Push notifications" section of /notifications and /mobile-notifications (docs/product.md#push): push on this
 * device, and the user's switches per type, which hold for every device and show whether or not this one pushes.
 * Closed by default, its summary says how this device stands (docs/decisions.md "Issue 27: push switches on
 * /notifications").
 */

const SUMMARY: Record<DeviceState['kind'], string> = {
  unsupported: 'not supported here',
  blocked: 'blocked in this browser',
  off: 'off on this device',
  on: 'on on this device',
};

export function PushSettings() {
  const device = useDevice();
  return (
    <details className="push-settings" data-testid="push-settings">
      <summary className="push-settings__summary">
        <span className="push-settings__heading">
          <span className="push-settings__title">Push notifications</span>
          {device.data && <span className="push-settings__state">{SUMMARY[device.data.kind]}</span>}
        </span>
      </summary>
      <div className="push-settings__body">
        <DeviceControl state={device.data} checking={device.isPending} />
        <Switches />
      </div>
    </details>
  );
}

function DeviceControl({ state, checking }: { state: DeviceState | undefined; checking: boolean }) {
  const turnOn = useTurnOn();
  const turnOff = useTurnOff();
  const [error, setError] = useState<string | null>(null);
  const busy = turnOn.isPending || turnOff.isPending;

  const on = () => {
    setError(null);
    turnOn.run(undefined).then(
      (s) => setError(s.kind === 'off' ? 'Push stays off: the browser was not allowed to show notifications.' : null),
      (err: unknown) => setError(turnOnErrorText(err)),
    );
  };
  const off = (endpoint: string) => {
    setError(null);
    turnOff.run(endpoint).catch(() => setError('Push could not be turned off. Please try again.'));
  };

  let line: string;
  let button: ReactNode = null;
  if (checking || !state) line = 'Checking this device...';
  else if (state.kind === 'unsupported') line = 'Push is not supported in this browser';
  else if (state.kind === 'blocked') line = 'Notifications are blocked in your browser settings';
  else if (state.kind === 'off') {
    line = 'Push is off on this device.';
    button = (
      <button type="button" className="button button--primary" disabled={busy} onClick={on}>
        {turnOn.isPending ? 'Turning on...' : 'Turn on push on this device'}
      </button>
    );
  } else {
    line = 'Push is on on this device.';
    const { endpoint } = state;
    button = (
      <button type="button" className="button" disabled={busy} onClick={() => off(endpoint)}>
        {turnOff.isPending ? 'Turning off...' : 'Turn off push on this device'}
      </button>
    );
  }

  return (
    <div className="push-settings__device" data-testid="push-device">
      <p className="push-settings__line" role="status">
        {line}
      </p>
      {button}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function Switches() {
  const prefs = usePreferences();
  const save = useSavePreference();
  const [error, setError] = useState<string | null>(null);

  if (prefs.isPending) return <p className="muted">Loading push settings...</p>;
  if (prefs.isError) {
    return <LoadFailed text="Push settings could not be loaded." onRetry={() => void prefs.refetch()} />;
  }
  const change = (type: PushType, on: boolean) => {
    setError(null);
    save.run({ [type]: on }).catch(() => setError('Your change could not be saved. Please try again.'));
  };
  return (
    <fieldset className="push-settings__switches" disabled={save.isPending}>
      <legend>Push me about (on all your devices)</legend>
      {PUSH_TYPES.map((type) => (
        <label key={type} className="push-switch">
          <span className="push-switch__label">{PUSH_TYPE_LABELS[type]}</span>
          <input
            type="checkbox"
            role="switch"
            className="push-switch__input"
            checked={prefs.data[type]}
            onChange={(e) => change(type, e.target.checked)}
          />
        </label>
      ))}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
