import { Component, type ReactNode } from 'react';
import { useLocation } from '../lib/router';

interface State {
  failed: boolean;
  error: unknown;
  locationKey: string;
}

/**
 * An error while a page renders, or while its chunk loads (say, a chunk a newer deploy removed), shows what
 * react-router's data router showed by default when the client used it; moving to another page (a new location key,
 * lib/router.tsx) clears it.
 */
class Boundary extends Component<{ children: ReactNode; locationKey: string }, State> {
  override state: State = { failed: false, error: undefined, locationKey: this.props.locationKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { failed: true, error };
  }

  static getDerivedStateFromProps(props: { locationKey: string }, state: State): Partial<State> | null {
    return props.locationKey === state.locationKey
      ? null
      : { failed: false, error: undefined, locationKey: props.locationKey };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    const { error } = this.state;
    const message = error instanceof Error ? error.message : JSON.stringify(error);
    const stack = error instanceof Error ? error.stack : undefined;
    return (
      <>
        <h2>Unexpected Application Error!</h2>
        <h3 style={{ fontStyle: 'italic' }}>{message}</h3>
        {stack ? <pre style={{ padding: '0.5rem', backgroundColor: 'rgba(200,200,200, 0.5)' }}>{stack}</pre> : null}
      </>
    );
  }
}

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  return <Boundary locationKey={useLocation().key}>{children}</Boundary>;
}
