import { Component, type ReactNode } from 'react';

/** A page that failed to render (or to load its code) says so, instead of leaving the screen blank. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <p role="alert" className="problem">
        This page could not be shown ({this.state.error.message}). Reload the page; if it happens again, tell us what
        you were doing.
      </p>
    );
  }
}
