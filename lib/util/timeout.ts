/** `promise`'s answer, or `onTimeout()`'s (a value, or what it throws) once `ms` have passed first; the promise is left to settle on its own. */
function raceTimer<T>(promise: Promise<T>, ms: number, onTimeout: () => T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<T>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, Math.max(0, ms));
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** `promise`'s answer, or false once `ms` have passed first (the promise is left to settle on its own). */
export function withTimeout(promise: Promise<boolean>, ms: number): Promise<boolean> {
  return raceTimer(promise, ms, () => false);
}

/** `promise`'s answer, or `error()` thrown once `ms` have passed first (the promise is left to settle on its own). */
export function rejectAfter<T>(promise: Promise<T>, ms: number, error: () => Error): Promise<T> {
  return raceTimer(promise, ms, () => {
    throw error();
  });
}
