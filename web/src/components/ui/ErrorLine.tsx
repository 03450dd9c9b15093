import { OFFLINE_TEXT, useOnline } from '../../hooks/useOnline';

/** A failed load said as 'Error: {message}', or 'You are offline' when that is why (docs/product.md#errors, #push). */
export function ErrorLine({ error }: { error: Error }) {
  const online = useOnline();
  return (
    <p className="form-error" role="alert">
      {online ? `Error: ${error.message}` : OFFLINE_TEXT}
    </p>
  );
}
