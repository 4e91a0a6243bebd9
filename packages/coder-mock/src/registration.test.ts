import { describe, expect, it } from 'vitest';
import { mockRegistration } from './registration.js';

describe('the mock coder registration', () => {
  it('loads the package by its own name, and the adapter carries the registration’s facts', async () => {
    const coder = await mockRegistration.load();
    expect(coder).toMatchObject({
      id: mockRegistration.id,
      displayName: mockRegistration.displayName,
      kind: mockRegistration.kind,
      installHint: mockRegistration.installHint,
    });
  });
});
