import { describe, expect, it } from 'vitest';
import { defineSnodoError } from './define-snodo-error.js';
import { SnodoError } from './snodo-error.js';

const ModeUnknownError = defineSnodoError({
  name: 'ModeUnknownError',
  code: 'MODE_UNKNOWN',
  message: (options: { mode: string }) => `The protocol has no mode '${options.mode}'.`,
});

/** A root of its own, as `@snodo/llm` has, with its own marker. */
class PackageRootError<Code extends string = string> extends SnodoError<Code> {
  constructor(code: Code, options: { message: string; cause?: unknown }) {
    super(code, options);
    SnodoError.mark(this, 'snodo.error.PackageRootError');
  }

  static override isInstance(value: unknown): value is PackageRootError {
    return SnodoError.hasMarker(value, 'snodo.error.PackageRootError');
  }
}

describe('SnodoError', () => {
  it('carries code, message and cause, and is recognised by its marker, not its class', () => {
    const cause = new Error('underlying');
    const error = new SnodoError('SOMETHING_FAILED', { message: 'It failed.', cause });
    expect(error).toMatchObject({ name: 'SnodoError', code: 'SOMETHING_FAILED', message: 'It failed.' });
    expect(error.cause).toBe(cause);
    expect(SnodoError.isInstance(error)).toBe(true);
    const fromAnotherCopy = Object.assign(new Error('x'), { [Symbol.for('snodo.error')]: true });
    expect(SnodoError.isInstance(fromAnotherCopy)).toBe(true);
    for (const value of [null, undefined, 'SOMETHING_FAILED', new Error('x'), { code: 'X' }]) {
      expect(SnodoError.isInstance(value)).toBe(false);
    }
  });

  it('keeps its markers out of logs, JSON and enumeration', () => {
    const error = new ModeUnknownError({ mode: 'fast' });
    const symbols = Object.getOwnPropertySymbols(error);
    expect(symbols.length).toBeGreaterThan(0);
    expect(symbols.every((symbol) => !Object.getOwnPropertyDescriptor(error, symbol)?.enumerable)).toBe(true);
    expect(Object.keys(error).sort()).toEqual(['code', 'name']);
  });
});

describe('defineSnodoError', () => {
  it('makes a class with the name, the code, the message builder and isInstance', () => {
    const cause = new Error('underlying');
    const error = new ModeUnknownError({ mode: 'fast', cause });
    expect(error).toBeInstanceOf(SnodoError);
    expect(error).toBeInstanceOf(ModeUnknownError);
    expect(error).toMatchObject({ name: 'ModeUnknownError', code: 'MODE_UNKNOWN' });
    expect(error.message).toBe("The protocol has no mode 'fast'.");
    expect(error.cause).toBe(cause);
    expect(ModeUnknownError.name).toBe('ModeUnknownError');
    expect(ModeUnknownError.isInstance(error)).toBe(true);
    expect(SnodoError.isInstance(error)).toBe(true);
  });

  it('tells errors apart by marker, across copies: another code is not this error, a foreign copy is', () => {
    const OtherError = defineSnodoError({ name: 'OtherError', code: 'OTHER', message: () => 'other' });
    expect(ModeUnknownError.isInstance(new OtherError({}))).toBe(false);
    expect(ModeUnknownError.isInstance(new SnodoError('MODE_UNKNOWN', { message: 'bare' }))).toBe(false);
    const foreign = Object.assign(new Error('x'), { [Symbol.for('snodo.error.MODE_UNKNOWN')]: true });
    expect(ModeUnknownError.isInstance(foreign)).toBe(true);
  });

  it('extends a package root when given one, so its isInstance holds too', () => {
    const RootedError = defineSnodoError({
      name: 'RootedError',
      code: 'ROOTED',
      base: PackageRootError,
      message: () => 'rooted',
    });
    const error = new RootedError({});
    expect(PackageRootError.isInstance(error) && RootedError.isInstance(error)).toBe(true);
    expect(PackageRootError.isInstance(new ModeUnknownError({ mode: 'x' }))).toBe(false);
  });

  it('can be extended by a class that adds a field', () => {
    class DetailedError extends ModeUnknownError {
      readonly mode: string;
      constructor(options: { mode: string }) {
        super(options);
        this.mode = options.mode;
      }
    }
    const error = new DetailedError({ mode: 'slow' });
    expect(error.mode).toBe('slow');
    expect(ModeUnknownError.isInstance(error)).toBe(true);
  });
});
