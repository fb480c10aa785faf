import { importOnce } from './importOnce';

describe('importOnce', () => {
  it('requests the module once and gives every caller the same module', async () => {
    const module = { name: 'keycloak-js' };
    const load = jest.fn(() => Promise.resolve(module));
    const get = importOnce(load);

    const [first, second] = await Promise.all([get(), get()]);
    const third = await get();

    expect(load).toHaveBeenCalledTimes(1);
    expect(first).toBe(module);
    expect(second).toBe(module);
    expect(third).toBe(module);
  });

  it('requests again after a failed request, so a retry can succeed', async () => {
    const module = { name: 'keycloak-js' };
    const load = jest.fn<Promise<typeof module>, []>().mockRejectedValueOnce(new Error('ChunkLoadError')).mockResolvedValueOnce(module);
    const get = importOnce(load);

    await expect(get()).rejects.toThrow('ChunkLoadError');
    await expect(get()).resolves.toBe(module);

    expect(load).toHaveBeenCalledTimes(2);
  });
});
