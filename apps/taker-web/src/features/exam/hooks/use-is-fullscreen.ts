import { useEffect, useState } from 'react';

/** Whether the page is in full screen now, following the browser's fullscreenchange events. */
export function useIsFullscreen(): boolean {
  const [isFullscreen, setIsFullscreen] = useState(() => Boolean(document.fullscreenElement));
  useEffect(() => {
    const onChange = () => setIsFullscreen(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  return isFullscreen;
}
