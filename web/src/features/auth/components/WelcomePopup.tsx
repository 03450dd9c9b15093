import { Popup } from '../../../components/ui/Popup';
import { closePopup, openPopup } from '../../../lib/popups';
import { tenant } from '../../../lib/tenant';

export function WelcomePopup({ username }: { username: string }) {
  return (
    <Popup title={`Welcome, ${username}!`}>
      <div className="stack">
        <p>
          Pictures here are ranked by the money people put on them. Fund the ones you love and push them up the wall.
        </p>
        <p>Open free lootboxes for letters and emojis: you write comments and chat with the ones you own.</p>
        <p>Half of what you spend goes to a cause you choose under Swag.</p>
        <div className="row">
          {tenant === 'cash' && (
            <button type="button" className="button button--primary" onClick={() => openPopup({ kind: 'addMoney' })}>
              Add money
            </button>
          )}
          <button type="button" className="button" onClick={closePopup}>
            Let&apos;s go
          </button>
        </div>
      </div>
    </Popup>
  );
}
