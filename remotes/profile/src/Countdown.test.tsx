import { act, render, screen } from '@testing-library/react';
import { clockTime, Countdown } from './Countdown';

describe('Countdown', () => {
  it('paints the countdown first and the clock time after that paint (its first format loads the locale data)', async () => {
    const at = Date.now() + 150_000;
    // act runs the render's effects too, as React does before the browser paints a synchronous render
    act(() => {
      render(<Countdown at={at} />);
    });
    const countdown = screen.getByTestId('token-countdown');
    expect(countdown.textContent).toMatch(/^expires in 2 min (29|30) s$/);
    // after the next frame: the clock time the token ends at
    expect(await screen.findByText(`(${clockTime(at)})`, { exact: false })).toBeTruthy();
    expect(countdown.textContent).toMatch(/^expires in 2 min (29|30) s \(.+\)$/);
  });
});
