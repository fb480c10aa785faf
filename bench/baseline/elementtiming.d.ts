// The Element Timing attribute the benchmark reads on the headings (not in React's types).
import 'react';

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the name must match React's declaration to merge with it
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
