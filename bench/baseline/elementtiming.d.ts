// The Element Timing attribute the benchmark reads on the headings (not in React's types).
import 'react';

declare module 'react' {
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
